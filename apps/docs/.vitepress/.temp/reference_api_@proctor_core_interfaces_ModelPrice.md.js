import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelPrice","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelPrice.md","filePath":"reference/api/@proctor/core/interfaces/ModelPrice.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelPrice.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelPrice</p><h1 id="interface-modelprice" tabindex="-1">Interface: ModelPrice <a class="header-anchor" href="#interface-modelprice" aria-label="Permalink to &quot;Interface: ModelPrice&quot;">​</a></h1><p>Defined in: packages/core/src/pricing/Pricing.ts:13</p><p>USD per token. <code>cached_input</code> is the rate for prompt tokens served from the provider&#39;s cache.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="cached-input" tabindex="-1">cached_input? <a class="header-anchor" href="#cached-input" aria-label="Permalink to &quot;cached\\_input?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>cached_input?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:16</p><hr><h3 id="input" tabindex="-1">input <a class="header-anchor" href="#input" aria-label="Permalink to &quot;input&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>input</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:14</p><hr><h3 id="output" tabindex="-1">output <a class="header-anchor" href="#output" aria-label="Permalink to &quot;output&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>output</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/pricing/Pricing.ts:15</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelPrice.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelPrice = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelPrice as default
};
