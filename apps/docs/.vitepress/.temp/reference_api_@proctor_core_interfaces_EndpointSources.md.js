import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: EndpointSources","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/EndpointSources.md","filePath":"reference/api/@proctor/core/interfaces/EndpointSources.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/EndpointSources.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / EndpointSources</p><h1 id="interface-endpointsources" tabindex="-1">Interface: EndpointSources <a class="header-anchor" href="#interface-endpointsources" aria-label="Permalink to &quot;Interface: EndpointSources&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:40</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="env" tabindex="-1">env <a class="header-anchor" href="#env" aria-label="Permalink to &quot;env&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>env</strong>: <code>Env</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:47</p><hr><h3 id="fileprovider" tabindex="-1">fileProvider? <a class="header-anchor" href="#fileprovider" aria-label="Permalink to &quot;fileProvider?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>fileProvider?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:46</p><p><code>[eval] provider</code>.</p><hr><h3 id="fileurl" tabindex="-1">fileUrl? <a class="header-anchor" href="#fileurl" aria-label="Permalink to &quot;fileUrl?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>fileUrl?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:44</p><p><code>[eval.policy_config] inference_url</code>.</p><hr><h3 id="flagprovider" tabindex="-1">flagProvider? <a class="header-anchor" href="#flagprovider" aria-label="Permalink to &quot;flagProvider?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>flagProvider?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:42</p><hr><h3 id="flagurl" tabindex="-1">flagUrl? <a class="header-anchor" href="#flagurl" aria-label="Permalink to &quot;flagUrl?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>flagUrl?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelEndpoint.ts:41</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/EndpointSources.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const EndpointSources = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  EndpointSources as default
};
