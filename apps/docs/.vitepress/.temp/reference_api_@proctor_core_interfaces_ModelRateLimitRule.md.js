import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelRateLimitRule","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelRateLimitRule.md","filePath":"reference/api/@proctor/core/interfaces/ModelRateLimitRule.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelRateLimitRule.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelRateLimitRule</p><h1 id="interface-modelratelimitrule" tabindex="-1">Interface: ModelRateLimitRule <a class="header-anchor" href="#interface-modelratelimitrule" aria-label="Permalink to &quot;Interface: ModelRateLimitRule&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:45</p><p>Configured limits of one upstream, by its base URL (<code>https://api.openai.com/v1</code>).</p><h2 id="extends" tabindex="-1">Extends <a class="header-anchor" href="#extends" aria-label="Permalink to &quot;Extends&quot;">​</a></h2><ul><li><a href="./ModelRateLimit.html"><code>ModelRateLimit</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="baseurl" tabindex="-1">baseUrl <a class="header-anchor" href="#baseurl" aria-label="Permalink to &quot;baseUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>baseUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:46</p><hr><h3 id="requestsperminute" tabindex="-1">requestsPerMinute <a class="header-anchor" href="#requestsperminute" aria-label="Permalink to &quot;requestsPerMinute&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>requestsPerMinute</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/internal/rateArithmetic.ts:18</p><h4 id="inherited-from" tabindex="-1">Inherited from <a class="header-anchor" href="#inherited-from" aria-label="Permalink to &quot;Inherited from&quot;">​</a></h4><p><a href="./ModelRateLimit.html"><code>ModelRateLimit</code></a>.<a href="./ModelRateLimit.html#requestsperminute"><code>requestsPerMinute</code></a></p><hr><h3 id="tokensperminute" tabindex="-1">tokensPerMinute <a class="header-anchor" href="#tokensperminute" aria-label="Permalink to &quot;tokensPerMinute&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tokensPerMinute</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/internal/rateArithmetic.ts:19</p><h4 id="inherited-from-1" tabindex="-1">Inherited from <a class="header-anchor" href="#inherited-from-1" aria-label="Permalink to &quot;Inherited from&quot;">​</a></h4><p><a href="./ModelRateLimit.html"><code>ModelRateLimit</code></a>.<a href="./ModelRateLimit.html#tokensperminute"><code>tokensPerMinute</code></a></p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelRateLimitRule.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelRateLimitRule = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelRateLimitRule as default
};
