import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ClusterMonitorService","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ClusterMonitorService.md","filePath":"reference/api/@proctor/server/interfaces/ClusterMonitorService.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ClusterMonitorService.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ClusterMonitorService</p><h1 id="interface-clustermonitorservice" tabindex="-1">Interface: ClusterMonitorService <a class="header-anchor" href="#interface-clustermonitorservice" aria-label="Permalink to &quot;Interface: ClusterMonitorService&quot;">​</a></h1><p>Defined in: packages/server/src/cluster/ClusterMonitor.ts:4</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="metrics" tabindex="-1">metrics <a class="header-anchor" href="#metrics" aria-label="Permalink to &quot;metrics&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>metrics</strong>: () =&gt; <code>Promise</code>&lt;<a href="./ClusterMetrics.html"><code>ClusterMetrics</code></a>&gt;</p></blockquote><p>Defined in: packages/server/src/cluster/ClusterMonitor.ts:6</p><p>Queue depth, workers alive with their throughput, leases lost, rollouts re-dispatched and re-run.</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<a href="./ClusterMetrics.html"><code>ClusterMetrics</code></a>&gt;</p><hr><h3 id="pingredis" tabindex="-1">pingRedis <a class="header-anchor" href="#pingredis" aria-label="Permalink to &quot;pingRedis&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>pingRedis</strong>: (<code>timeoutMs</code>) =&gt; <code>Promise</code>&lt;<code>void</code>&gt;</p></blockquote><p>Defined in: packages/server/src/cluster/ClusterMonitor.ts:8</p><p>Resolves when Redis answers (for <code>/readyz</code>); rejects after <code>timeoutMs</code>.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="timeoutms" tabindex="-1">timeoutMs <a class="header-anchor" href="#timeoutms" aria-label="Permalink to &quot;timeoutMs&quot;">​</a></h5><p><code>number</code></p><h4 id="returns-1" tabindex="-1">Returns <a class="header-anchor" href="#returns-1" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<code>void</code>&gt;</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ClusterMonitorService.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ClusterMonitorService = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ClusterMonitorService as default
};
