import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RunningInterceptor","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RunningInterceptor.md","filePath":"reference/api/@proctor/server/interfaces/RunningInterceptor.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RunningInterceptor.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RunningInterceptor</p><h1 id="interface-runninginterceptor" tabindex="-1">Interface: RunningInterceptor <a class="header-anchor" href="#interface-runninginterceptor" aria-label="Permalink to &quot;Interface: RunningInterceptor&quot;">​</a></h1><p>Defined in: packages/server/src/interceptor/startInterceptor.ts:15</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="close" tabindex="-1">close <a class="header-anchor" href="#close" aria-label="Permalink to &quot;close&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>close</strong>: () =&gt; <code>Promise</code>&lt;<code>void</code>&gt;</p></blockquote><p>Defined in: packages/server/src/interceptor/startInterceptor.ts:20</p><p>Stops the server (in-flight calls end as cancelled) and, if it made the interceptor, shuts it down.</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Promise</code>&lt;<code>void</code>&gt;</p><hr><h3 id="interceptor" tabindex="-1">interceptor <a class="header-anchor" href="#interceptor" aria-label="Permalink to &quot;interceptor&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>interceptor</strong>: <a href="./../../core/interfaces/InterceptorService.html"><code>InterceptorService</code></a></p></blockquote><p>Defined in: packages/server/src/interceptor/startInterceptor.ts:16</p><hr><h3 id="url" tabindex="-1">url <a class="header-anchor" href="#url" aria-label="Permalink to &quot;url&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>url</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/interceptor/startInterceptor.ts:18</p><p>The server&#39;s base URL, e.g. <code>http://127.0.0.1:41234</code>; rollouts get <code>\${url}/\${cid}/v1</code>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RunningInterceptor.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RunningInterceptor = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RunningInterceptor as default
};
