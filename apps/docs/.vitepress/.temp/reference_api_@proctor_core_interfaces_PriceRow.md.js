import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: PriceRow","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/PriceRow.md","filePath":"reference/api/@proctor/core/interfaces/PriceRow.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/PriceRow.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / PriceRow</p><h1 id="interface-pricerow" tabindex="-1">Interface: PriceRow <a class="header-anchor" href="#interface-pricerow" aria-label="Permalink to &quot;Interface: PriceRow&quot;">​</a></h1><p>Defined in: packages/core/src/pricing/internal/pricingData.ts:3</p><p>The built-in price table, as rows (the pricing reference in apps/docs is generated from it).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="models" tabindex="-1">models <a class="header-anchor" href="#models" aria-label="Permalink to &quot;models&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>models</strong>: readonly <code>string</code>[]</p></blockquote><p>Defined in: packages/core/src/pricing/internal/pricingData.ts:6</p><p>Names this price answers to; the first is the canonical one. Dated snapshots need no row of their own.</p><hr><h3 id="price" tabindex="-1">price <a class="header-anchor" href="#price" aria-label="Permalink to &quot;price&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>price</strong>: <a href="./ModelPrice.html"><code>ModelPrice</code></a></p></blockquote><p>Defined in: packages/core/src/pricing/internal/pricingData.ts:7</p><hr><h3 id="provider" tabindex="-1">provider <a class="header-anchor" href="#provider" aria-label="Permalink to &quot;provider&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>provider</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/pricing/internal/pricingData.ts:4</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/PriceRow.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const PriceRow = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  PriceRow as default
};
