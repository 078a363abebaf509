import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: InterceptorUpstream","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/InterceptorUpstream.md","filePath":"reference/api/@proctor/core/interfaces/InterceptorUpstream.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/InterceptorUpstream.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / InterceptorUpstream</p><h1 id="interface-interceptorupstream" tabindex="-1">Interface: InterceptorUpstream <a class="header-anchor" href="#interface-interceptorupstream" aria-label="Permalink to &quot;Interface: InterceptorUpstream&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/Interceptor.ts:31</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="apikey" tabindex="-1">apiKey? <a class="header-anchor" href="#apikey" aria-label="Permalink to &quot;apiKey?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>apiKey?</strong>: <code>Redacted</code>&lt;<code>string</code>&gt; | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:35</p><p>Sent upstream instead of the task app&#39;s own credentials; never recorded.</p><hr><h3 id="baseurl" tabindex="-1">baseUrl <a class="header-anchor" href="#baseurl" aria-label="Permalink to &quot;baseUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>baseUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:33</p><p>The model&#39;s base URL (<code>https://api.openai.com/v1</code>, <code>http://127.0.0.1:8001/v1</code>, …).</p><hr><h3 id="provider" tabindex="-1">provider? <a class="header-anchor" href="#provider" aria-label="Permalink to &quot;provider?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>provider?</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:37</p><p>Recorded and priced as this provider; inferred from well-known hosts when absent.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/InterceptorUpstream.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const InterceptorUpstream = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  InterceptorUpstream as default
};
