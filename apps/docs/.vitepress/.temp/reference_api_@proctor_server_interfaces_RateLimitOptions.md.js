import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RateLimitOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RateLimitOptions.md","filePath":"reference/api/@proctor/server/interfaces/RateLimitOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RateLimitOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RateLimitOptions</p><h1 id="interface-ratelimitoptions" tabindex="-1">Interface: RateLimitOptions <a class="header-anchor" href="#interface-ratelimitoptions" aria-label="Permalink to &quot;Interface: RateLimitOptions&quot;">​</a></h1><p>Defined in: packages/server/src/api/RateLimiter.ts:4</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="burst" tabindex="-1">burst <a class="header-anchor" href="#burst" aria-label="Permalink to &quot;burst&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>burst</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/api/RateLimiter.ts:6</p><p>Requests a key may make in a burst.</p><hr><h3 id="persecond" tabindex="-1">perSecond <a class="header-anchor" href="#persecond" aria-label="Permalink to &quot;perSecond&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>perSecond</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/api/RateLimiter.ts:8</p><p>Tokens added back per second.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RateLimitOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RateLimitOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RateLimitOptions as default
};
