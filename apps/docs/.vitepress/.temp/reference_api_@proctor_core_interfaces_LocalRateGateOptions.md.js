import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: LocalRateGateOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/LocalRateGateOptions.md","filePath":"reference/api/@proctor/core/interfaces/LocalRateGateOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/LocalRateGateOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / LocalRateGateOptions</p><h1 id="interface-localrategateoptions" tabindex="-1">Interface: LocalRateGateOptions <a class="header-anchor" href="#interface-localrategateoptions" aria-label="Permalink to &quot;Interface: LocalRateGateOptions&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:113</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="limits" tabindex="-1">limits? <a class="header-anchor" href="#limits" aria-label="Permalink to &quot;limits?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>limits?</strong>: readonly <a href="./ModelRateLimitRule.html"><code>ModelRateLimitRule</code></a>[]</p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:114</p><hr><h3 id="now" tabindex="-1">now? <a class="header-anchor" href="#now" aria-label="Permalink to &quot;now?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>now?</strong>: () =&gt; <code>number</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:116</p><p>The gate&#39;s clock and timer; tests give their own.</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>number</code></p><hr><h3 id="schedule" tabindex="-1">schedule? <a class="header-anchor" href="#schedule" aria-label="Permalink to &quot;schedule?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>schedule?</strong>: (<code>go</code>, <code>ms</code>) =&gt; <code>void</code></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:117</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="go" tabindex="-1">go <a class="header-anchor" href="#go" aria-label="Permalink to &quot;go&quot;">​</a></h5><p>() =&gt; <code>void</code></p><h5 id="ms" tabindex="-1">ms <a class="header-anchor" href="#ms" aria-label="Permalink to &quot;ms&quot;">​</a></h5><p><code>number</code></p><h4 id="returns-1" tabindex="-1">Returns <a class="header-anchor" href="#returns-1" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>void</code></p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/LocalRateGateOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const LocalRateGateOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  LocalRateGateOptions as default
};
