import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: SummaryPlan","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/report/interfaces/SummaryPlan.md","filePath":"reference/api/@proctor/report/interfaces/SummaryPlan.md"}');
const _sfc_main = { name: "reference/api/@proctor/report/interfaces/SummaryPlan.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/report</a> / SummaryPlan</p><h1 id="interface-summaryplan" tabindex="-1">Interface: SummaryPlan <a class="header-anchor" href="#interface-summaryplan" aria-label="Permalink to &quot;Interface: SummaryPlan&quot;">​</a></h1><p>Defined in: packages/report/src/RunningSummary.ts:3</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempts" tabindex="-1">attempts <a class="header-anchor" href="#attempts" aria-label="Permalink to &quot;attempts&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempts</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/RunningSummary.ts:5</p><hr><h3 id="cluster-by" tabindex="-1">cluster_by? <a class="header-anchor" href="#cluster-by" aria-label="Permalink to &quot;cluster\\_by?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>cluster_by?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/report/src/RunningSummary.ts:7</p><hr><h3 id="pass-threshold" tabindex="-1">pass_threshold <a class="header-anchor" href="#pass-threshold" aria-label="Permalink to &quot;pass\\_threshold&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>pass_threshold</strong>: <code>number</code></p></blockquote><p>Defined in: packages/report/src/RunningSummary.ts:6</p><hr><h3 id="seeds" tabindex="-1">seeds <a class="header-anchor" href="#seeds" aria-label="Permalink to &quot;seeds&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seeds</strong>: readonly <code>number</code>[]</p></blockquote><p>Defined in: packages/report/src/RunningSummary.ts:4</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/report/interfaces/SummaryPlan.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const SummaryPlan = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  SummaryPlan as default
};
