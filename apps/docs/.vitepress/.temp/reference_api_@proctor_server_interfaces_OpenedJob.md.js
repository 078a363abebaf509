import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: OpenedJob","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/OpenedJob.md","filePath":"reference/api/@proctor/server/interfaces/OpenedJob.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/OpenedJob.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / OpenedJob</p><h1 id="interface-openedjob" tabindex="-1">Interface: OpenedJob <a class="header-anchor" href="#interface-openedjob" aria-label="Permalink to &quot;Interface: OpenedJob&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/JobRuntime.ts:39</p><p>A stored job made runnable: its config with its secrets, and the solver its rollouts run on.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="config" tabindex="-1">config <a class="header-anchor" href="#config" aria-label="Permalink to &quot;config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>config</strong>: <a href="./../../core/interfaces/EvalRunConfig.html"><code>EvalRunConfig</code></a></p></blockquote><p>Defined in: packages/server/src/jobs/JobRuntime.ts:40</p><hr><h3 id="solver" tabindex="-1">solver <a class="header-anchor" href="#solver" aria-label="Permalink to &quot;solver&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>solver</strong>: <code>Layer</code>&lt;<a href="./../../core/classes/Solver.html"><code>Solver</code></a>, <code>never</code>, <a href="./../../core/classes/ResultStore.html"><code>ResultStore</code></a>&gt;</p></blockquote><p>Defined in: packages/server/src/jobs/JobRuntime.ts:42</p><p>Needs the store the job&#39;s model calls (and, embedded, its results) go to.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/OpenedJob.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const OpenedJob = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  OpenedJob as default
};
