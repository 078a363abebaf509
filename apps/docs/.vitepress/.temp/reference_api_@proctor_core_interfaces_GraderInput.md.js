import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: GraderInput","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/GraderInput.md","filePath":"reference/api/@proctor/core/interfaces/GraderInput.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/GraderInput.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / GraderInput</p><h1 id="interface-graderinput" tabindex="-1">Interface: GraderInput <a class="header-anchor" href="#interface-graderinput" aria-label="Permalink to &quot;Interface: GraderInput&quot;">​</a></h1><p>Defined in: packages/core/src/grader/Grader.ts:4</p><p>What a grader looks at: the rollout&#39;s final answer, the task&#39;s row (<code>item</code>) and, for agents, its steps.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="answer" tabindex="-1">answer <a class="header-anchor" href="#answer" aria-label="Permalink to &quot;answer&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>answer</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/grader/Grader.ts:5</p><hr><h3 id="item" tabindex="-1">item <a class="header-anchor" href="#item" aria-label="Permalink to &quot;item&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>item</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/grader/Grader.ts:6</p><hr><h3 id="trajectory" tabindex="-1">trajectory? <a class="header-anchor" href="#trajectory" aria-label="Permalink to &quot;trajectory?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>trajectory?</strong>: readonly <code>unknown</code>[]</p></blockquote><p>Defined in: packages/core/src/grader/Grader.ts:7</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/GraderInput.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const GraderInput = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  GraderInput as default
};
