import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelRateLimit","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelRateLimit.md","filePath":"reference/api/@proctor/core/interfaces/ModelRateLimit.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelRateLimit.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelRateLimit</p><h1 id="interface-modelratelimit" tabindex="-1">Interface: ModelRateLimit <a class="header-anchor" href="#interface-modelratelimit" aria-label="Permalink to &quot;Interface: ModelRateLimit&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/internal/rateArithmetic.ts:17</p><p>Limits a user configured for one upstream; null: none of that kind.</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./ModelRateLimitRule.html"><code>ModelRateLimitRule</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="requestsperminute" tabindex="-1">requestsPerMinute <a class="header-anchor" href="#requestsperminute" aria-label="Permalink to &quot;requestsPerMinute&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>requestsPerMinute</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/internal/rateArithmetic.ts:18</p><hr><h3 id="tokensperminute" tabindex="-1">tokensPerMinute <a class="header-anchor" href="#tokensperminute" aria-label="Permalink to &quot;tokensPerMinute&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tokensPerMinute</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/interceptor/internal/rateArithmetic.ts:19</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelRateLimit.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelRateLimit = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelRateLimit as default
};
