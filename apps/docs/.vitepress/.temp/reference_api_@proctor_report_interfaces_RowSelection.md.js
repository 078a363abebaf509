import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RowSelection","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/RowSelection.md","filePath":"reference/api/@proctor/report/interfaces/RowSelection.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/RowSelection.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / RowSelection</p><h1 id="interface-rowselection" tabindex="-1">Interface: RowSelection <a class="header-anchor" href="#interface-rowselection" aria-label="Permalink to &quot;Interface: RowSelection&quot;">​</a></h1><p>Defined in: packages/report/src/table.ts:6</p><p>Which rows a table shows: the first and the last ones, and failures (errors and wrong answers) up to a cap.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="failures" tabindex="-1">failures <a class="header-anchor" href="#failures" aria-label="Permalink to &quot;failures&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>failures</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/table.ts:9</p><hr><h3 id="first" tabindex="-1">first <a class="header-anchor" href="#first" aria-label="Permalink to &quot;first&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>first</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/table.ts:7</p><hr><h3 id="last" tabindex="-1">last <a class="header-anchor" href="#last" aria-label="Permalink to &quot;last&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>last</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/table.ts:8</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/RowSelection.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RowSelection = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RowSelection as default
};
