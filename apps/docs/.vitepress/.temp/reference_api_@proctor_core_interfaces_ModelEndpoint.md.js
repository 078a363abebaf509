import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelEndpoint","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelEndpoint.md","filePath":"reference/api/@proctor/core/interfaces/ModelEndpoint.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelEndpoint.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelEndpoint</p><h1 id="interface-modelendpoint" tabindex="-1">Interface: ModelEndpoint <a class="header-anchor" href="#interface-modelendpoint" aria-label="Permalink to &quot;Interface: ModelEndpoint&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:50</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="inferenceurl" tabindex="-1">inferenceUrl <a class="header-anchor" href="#inferenceurl" aria-label="Permalink to &quot;inferenceUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>inferenceUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:51</p><hr><h3 id="provider" tabindex="-1">provider <a class="header-anchor" href="#provider" aria-label="Permalink to &quot;provider&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>provider</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:53</p><p>The provider, when named or implied (<code>OPENAI_BASE_URL</code> implies OpenAI&#39;s conventions, key included).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelEndpoint.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelEndpoint = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelEndpoint as default
};
