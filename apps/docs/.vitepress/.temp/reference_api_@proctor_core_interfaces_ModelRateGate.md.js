import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelRateGate","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelRateGate.md","filePath":"reference/api/@proctor/core/interfaces/ModelRateGate.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelRateGate.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelRateGate</p><h1 id="interface-modelrategate" tabindex="-1">Interface: ModelRateGate <a class="header-anchor" href="#interface-modelrategate" aria-label="Permalink to &quot;Interface: ModelRateGate&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:19</p><p>The gate the interceptor asks before it forwards a model call, and tells of every 429. Plain callbacks, no Effect: it sits on the proxy&#39;s per-call path. <code>localRateGate</code> keeps its state in this process; <code>@proctor/server</code>&#39;s <code>redisRateGate</code> shares it between every process that calls the upstream.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="close" tabindex="-1">close <a class="header-anchor" href="#close" aria-label="Permalink to &quot;close&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>close</strong>: () =&gt; <code>Promise</code>&lt;<code>void</code>&gt;</p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:23</p><p>Lets go of what the gate holds (a Redis connection); calls still waiting are sent.</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<code>void</code>&gt;</p><hr><h3 id="upstream" tabindex="-1">upstream <a class="header-anchor" href="#upstream" aria-label="Permalink to &quot;upstream&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>upstream</strong>: (<code>baseUrl</code>, <code>apiKey</code>) =&gt; <a href="./GatedUpstream.html"><code>GatedUpstream</code></a></p></blockquote><p>Defined in: packages/core/src/interceptor/ModelRateGate.ts:21</p><p>The gate of one upstream base URL called with one key: every call made with both shares its state.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="baseurl" tabindex="-1">baseUrl <a class="header-anchor" href="#baseurl" aria-label="Permalink to &quot;baseUrl&quot;">​</a></h5><p><code>string</code></p><h5 id="apikey" tabindex="-1">apiKey <a class="header-anchor" href="#apikey" aria-label="Permalink to &quot;apiKey&quot;">​</a></h5><p><code>string</code> | <code>null</code></p><h4 id="returns-1" tabindex="-1">Returns <a class="header-anchor" href="#returns-1" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><a href="./GatedUpstream.html"><code>GatedUpstream</code></a></p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelRateGate.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelRateGate = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelRateGate as default
};
