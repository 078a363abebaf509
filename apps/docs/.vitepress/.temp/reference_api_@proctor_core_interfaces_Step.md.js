import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: Step","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/Step.md","filePath":"reference/api/@proctor/core/interfaces/Step.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/Step.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / Step</p><h1 id="interface-step" tabindex="-1">Interface: Step <a class="header-anchor" href="#interface-step" aria-label="Permalink to &quot;Interface: Step&quot;">​</a></h1><p>Defined in: packages/core/src/solver/Solver.ts:37</p><p>One step of a rollout as it happens (an observation, tool calls, a reward). <code>record</code>, when present, is stored in the run directory&#39;s <code>steps.jsonl</code> (the runner fills in the rollout&#39;s id, key, try, index and times).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="tag" tabindex="-1">_tag <a class="header-anchor" href="#tag" aria-label="Permalink to &quot;\\_tag&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>_tag</strong>: <code>&quot;Step&quot;</code></p></blockquote><p>Defined in: packages/core/src/solver/Solver.ts:38</p><hr><h3 id="index" tabindex="-1">index <a class="header-anchor" href="#index" aria-label="Permalink to &quot;index&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>index</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/solver/Solver.ts:39</p><hr><h3 id="info" tabindex="-1">info? <a class="header-anchor" href="#info" aria-label="Permalink to &quot;info?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>info?</strong>: <code>unknown</code></p></blockquote><p>Defined in: packages/core/src/solver/Solver.ts:41</p><hr><h3 id="record" tabindex="-1">record? <a class="header-anchor" href="#record" aria-label="Permalink to &quot;record?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>record?</strong>: <a href="./../#steprecord"><code>StepRecord</code></a></p></blockquote><p>Defined in: packages/core/src/solver/Solver.ts:42</p><hr><h3 id="reward" tabindex="-1">reward? <a class="header-anchor" href="#reward" aria-label="Permalink to &quot;reward?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>reward?</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/solver/Solver.ts:40</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/Step.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const Step = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  Step as default
};
