import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ResultStats","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ResultStats.md","filePath":"reference/api/@proctor/server/interfaces/ResultStats.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ResultStats.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ResultStats</p><h1 id="interface-resultstats" tabindex="-1">Interface: ResultStats <a class="header-anchor" href="#interface-resultstats" aria-label="Permalink to &quot;Interface: ResultStats&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/ResultTally.ts:8</p><p>Aggregates over a job&#39;s stored results, as synth-ai&#39;s status endpoint reports them.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="completed" tabindex="-1">completed <a class="header-anchor" href="#completed" aria-label="Permalink to &quot;completed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>completed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:9</p><hr><h3 id="meanscore" tabindex="-1">meanScore <a class="header-anchor" href="#meanscore" aria-label="Permalink to &quot;meanScore&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>meanScore</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:11</p><hr><h3 id="ok" tabindex="-1">ok <a class="header-anchor" href="#ok" aria-label="Permalink to &quot;ok&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>ok</strong>: <code>number</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:10</p><hr><h3 id="totalcostusd" tabindex="-1">totalCostUsd <a class="header-anchor" href="#totalcostusd" aria-label="Permalink to &quot;totalCostUsd&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>totalCostUsd</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:13</p><hr><h3 id="totaltokens" tabindex="-1">totalTokens <a class="header-anchor" href="#totaltokens" aria-label="Permalink to &quot;totalTokens&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>totalTokens</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ResultTally.ts:12</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ResultStats.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ResultStats = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ResultStats as default
};
