import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: PriceOverride","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/PriceOverride.md","filePath":"reference/api/@proctor/core/interfaces/PriceOverride.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/PriceOverride.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / PriceOverride</p><h1 id="interface-priceoverride" tabindex="-1">Interface: PriceOverride <a class="header-anchor" href="#interface-priceoverride" aria-label="Permalink to &quot;Interface: PriceOverride&quot;">​</a></h1><p>Defined in: packages/core/src/pricing/Pricing.ts:20</p><p>A user&#39;s price for one model; <code>provider: null</code> applies under any provider.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="model" tabindex="-1">model <a class="header-anchor" href="#model" aria-label="Permalink to &quot;model&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>model</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:22</p><hr><h3 id="price" tabindex="-1">price <a class="header-anchor" href="#price" aria-label="Permalink to &quot;price&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>price</strong>: <a href="./ModelPrice.html"><code>ModelPrice</code></a></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:23</p><hr><h3 id="provider" tabindex="-1">provider <a class="header-anchor" href="#provider" aria-label="Permalink to &quot;provider&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>provider</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:21</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/PriceOverride.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const PriceOverride = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  PriceOverride as default
};
