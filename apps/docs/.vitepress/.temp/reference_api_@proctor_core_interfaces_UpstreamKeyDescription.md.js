import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: UpstreamKeyDescription","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/UpstreamKeyDescription.md","filePath":"reference/api/@proctor/core/interfaces/UpstreamKeyDescription.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/UpstreamKeyDescription.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / UpstreamKeyDescription</p><h1 id="interface-upstreamkeydescription" tabindex="-1">Interface: UpstreamKeyDescription <a class="header-anchor" href="#interface-upstreamkeydescription" aria-label="Permalink to &quot;Interface: UpstreamKeyDescription&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/PolicyUpstream.ts:92</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="endpoint" tabindex="-1">endpoint <a class="header-anchor" href="#endpoint" aria-label="Permalink to &quot;endpoint&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>endpoint</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/PolicyUpstream.ts:94</p><p>The model&#39;s <code>inference_url</code>; null when the policy names none.</p><hr><h3 id="source" tabindex="-1">source <a class="header-anchor" href="#source" aria-label="Permalink to &quot;source&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>source</strong>: <a href="./../#upstreamkeysource"><code>UpstreamKeySource</code></a> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/PolicyUpstream.ts:96</p><p>Where the model key comes from; null when proctor sends none.</p><hr><h3 id="text" tabindex="-1">text <a class="header-anchor" href="#text" aria-label="Permalink to &quot;text&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>text</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/PolicyUpstream.ts:98</p><p>Which key goes to the model and why, for the first lines of a run; never the key itself.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/UpstreamKeyDescription.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const UpstreamKeyDescription = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  UpstreamKeyDescription as default
};
