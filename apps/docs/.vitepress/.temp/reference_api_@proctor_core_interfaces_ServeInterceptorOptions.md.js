import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ServeInterceptorOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ServeInterceptorOptions.md","filePath":"reference/api/@proctor/core/interfaces/ServeInterceptorOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ServeInterceptorOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ServeInterceptorOptions</p><h1 id="interface-serveinterceptoroptions" tabindex="-1">Interface: ServeInterceptorOptions <a class="header-anchor" href="#interface-serveinterceptoroptions" aria-label="Permalink to &quot;Interface: ServeInterceptorOptions&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/serveInterceptor.ts:5</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./../../server/interfaces/StartInterceptorOptions.html"><code>StartInterceptorOptions</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="bodylimit" tabindex="-1">bodyLimit? <a class="header-anchor" href="#bodylimit" aria-label="Permalink to &quot;bodyLimit?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>bodyLimit?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/interceptor/serveInterceptor.ts:11</p><p>Largest request body accepted (long agent transcripts and images); default 20 MiB.</p><hr><h3 id="host" tabindex="-1">host? <a class="header-anchor" href="#host" aria-label="Permalink to &quot;host?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>host?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/serveInterceptor.ts:7</p><p>Default 127.0.0.1: the interceptor hands out capabilities to a model key, so it stays local unless told.</p><hr><h3 id="port" tabindex="-1">port? <a class="header-anchor" href="#port" aria-label="Permalink to &quot;port?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>port?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/interceptor/serveInterceptor.ts:9</p><p>Default 0 (any free port).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ServeInterceptorOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ServeInterceptorOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ServeInterceptorOptions as default
};
