import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: InterceptorOpenOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/InterceptorOpenOptions.md","filePath":"reference/api/@proctor/core/interfaces/InterceptorOpenOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/InterceptorOpenOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / InterceptorOpenOptions</p><h1 id="interface-interceptoropenoptions" tabindex="-1">Interface: InterceptorOpenOptions <a class="header-anchor" href="#interface-interceptoropenoptions" aria-label="Permalink to &quot;Interface: InterceptorOpenOptions&quot;">​</a></h1><p>Defined in: packages/core/src/interceptor/Interceptor.ts:50</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="attempt" tabindex="-1">attempt <a class="header-anchor" href="#attempt" aria-label="Permalink to &quot;attempt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>attempt</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:55</p><hr><h3 id="budget" tabindex="-1">budget? <a class="header-anchor" href="#budget" aria-label="Permalink to &quot;budget?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>budget?</strong>: <a href="./RolloutBudget.html"><code>RolloutBudget</code></a></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:57</p><hr><h3 id="rolloutid" tabindex="-1">rolloutId <a class="header-anchor" href="#rolloutid" aria-label="Permalink to &quot;rolloutId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>rolloutId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:53</p><p>The rollout&#39;s own id (the <code>run_id</code> sent to the task app).</p><hr><h3 id="runid" tabindex="-1">runId <a class="header-anchor" href="#runid" aria-label="Permalink to &quot;runId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>runId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:51</p><hr><h3 id="seed" tabindex="-1">seed <a class="header-anchor" href="#seed" aria-label="Permalink to &quot;seed&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>seed</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:54</p><hr><h3 id="upstream" tabindex="-1">upstream <a class="header-anchor" href="#upstream" aria-label="Permalink to &quot;upstream&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>upstream</strong>: <a href="./InterceptorUpstream.html"><code>InterceptorUpstream</code></a></p></blockquote><p>Defined in: packages/core/src/interceptor/Interceptor.ts:56</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/InterceptorOpenOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const InterceptorOpenOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  InterceptorOpenOptions as default
};
