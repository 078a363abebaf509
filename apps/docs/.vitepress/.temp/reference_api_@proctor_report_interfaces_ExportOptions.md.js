import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ExportOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/ExportOptions.md","filePath":"reference/api/@proctor/report/interfaces/ExportOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/ExportOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / ExportOptions</p><h1 id="interface-exportoptions" tabindex="-1">Interface: ExportOptions <a class="header-anchor" href="#interface-exportoptions" aria-label="Permalink to &quot;Interface: ExportOptions&quot;">​</a></h1><p>Defined in: packages/report/src/exports/exportRun.ts:17</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="minscore" tabindex="-1">minScore? <a class="header-anchor" href="#minscore" aria-label="Permalink to &quot;minScore?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>minScore?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/exports/exportRun.ts:19</p><p><code>sft</code>: only rollouts scoring at least this (default: the run&#39;s pass threshold).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/ExportOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ExportOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ExportOptions as default
};
