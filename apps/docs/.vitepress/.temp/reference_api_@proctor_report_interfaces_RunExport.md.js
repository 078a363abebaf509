import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RunExport","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/RunExport.md","filePath":"reference/api/@proctor/report/interfaces/RunExport.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/RunExport.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / RunExport</p><h1 id="interface-runexport" tabindex="-1">Interface: RunExport <a class="header-anchor" href="#interface-runexport" aria-label="Permalink to &quot;Interface: RunExport&quot;">​</a></h1><p>Defined in: packages/report/src/exports/exportRun.ts:33</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="chunks" tabindex="-1">chunks <a class="header-anchor" href="#chunks" aria-label="Permalink to &quot;chunks&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>chunks</strong>: <code>Stream</code>&lt;<code>string</code> | <code>Uint8Array</code>&lt;<code>ArrayBufferLike</code>&gt;, <a href="./../../core/classes/StoreError.html"><code>StoreError</code></a>&gt;</p></blockquote><p>Defined in: packages/report/src/exports/exportRun.ts:34</p><hr><h3 id="tally" tabindex="-1">tally <a class="header-anchor" href="#tally" aria-label="Permalink to &quot;tally&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tally</strong>: <a href="./../classes/ExportTally.html"><code>ExportTally</code></a></p></blockquote><p>Defined in: packages/report/src/exports/exportRun.ts:35</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/RunExport.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RunExport = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RunExport as default
};
