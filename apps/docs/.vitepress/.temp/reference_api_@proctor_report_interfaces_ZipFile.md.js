import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ZipFile","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/ZipFile.md","filePath":"reference/api/@proctor/report/interfaces/ZipFile.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/ZipFile.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / ZipFile</p><h1 id="interface-zipfile" tabindex="-1">Interface: ZipFile <a class="header-anchor" href="#interface-zipfile" aria-label="Permalink to &quot;Interface: ZipFile&quot;">​</a></h1><p>Defined in: packages/report/src/exports/tracesZip.ts:5</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="data" tabindex="-1">data <a class="header-anchor" href="#data" aria-label="Permalink to &quot;data&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>data</strong>: <code>Uint8Array</code></p></blockquote><p>Defined in: packages/report/src/exports/tracesZip.ts:7</p><hr><h3 id="name" tabindex="-1">name <a class="header-anchor" href="#name" aria-label="Permalink to &quot;name&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>name</strong>: <code>string</code></p></blockquote><p>Defined in: packages/report/src/exports/tracesZip.ts:6</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/ZipFile.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ZipFile = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ZipFile as default
};
