import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: JournalProblem","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/JournalProblem.md","filePath":"reference/api/@proctor/core/interfaces/JournalProblem.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/JournalProblem.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / JournalProblem</p><h1 id="interface-journalproblem" tabindex="-1">Interface: JournalProblem <a class="header-anchor" href="#interface-journalproblem" aria-label="Permalink to &quot;Interface: JournalProblem&quot;">​</a></h1><p>Defined in: packages/core/src/store/internal/JournalScan.ts:14</p><p>A line of the journal that is not a planned result; <code>line</code> counts from 1.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="line" tabindex="-1">line <a class="header-anchor" href="#line" aria-label="Permalink to &quot;line&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>line</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/store/internal/JournalScan.ts:15</p><hr><h3 id="problem" tabindex="-1">problem <a class="header-anchor" href="#problem" aria-label="Permalink to &quot;problem&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>problem</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/store/internal/JournalScan.ts:16</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/JournalProblem.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const JournalProblem = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  JournalProblem as default
};
