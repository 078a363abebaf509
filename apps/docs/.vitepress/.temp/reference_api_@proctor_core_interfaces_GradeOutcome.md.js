import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: GradeOutcome","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/GradeOutcome.md","filePath":"reference/api/@proctor/core/interfaces/GradeOutcome.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/GradeOutcome.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / GradeOutcome</p><h1 id="interface-gradeoutcome" tabindex="-1">Interface: GradeOutcome <a class="header-anchor" href="#interface-gradeoutcome" aria-label="Permalink to &quot;Interface: GradeOutcome&quot;">​</a></h1><p>Defined in: packages/core/src/grader/GraderSet.ts:8</p><p>A rollout graded by every grader of a set: each verdict by name, and the score they make together.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="grades" tabindex="-1">grades <a class="header-anchor" href="#grades" aria-label="Permalink to &quot;grades&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>grades</strong>: <code>object</code></p></blockquote><p>Defined in: packages/core/src/grader/GraderSet.ts:10</p><h4 id="index-signature" tabindex="-1">Index Signature <a class="header-anchor" href="#index-signature" aria-label="Permalink to &quot;Index Signature&quot;">​</a></h4><p>[<code>key</code>: <code>string</code>]: <code>object</code></p><hr><h3 id="score" tabindex="-1">score <a class="header-anchor" href="#score" aria-label="Permalink to &quot;score&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>score</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/grader/GraderSet.ts:9</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/GradeOutcome.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const GradeOutcome = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  GradeOutcome as default
};
