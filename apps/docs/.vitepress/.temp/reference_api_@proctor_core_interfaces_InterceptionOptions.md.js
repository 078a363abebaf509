import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: InterceptionOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/InterceptionOptions.md","filePath":"reference/api/@proctor/core/interfaces/InterceptionOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/InterceptionOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / InterceptionOptions</p><h1 id="interface-interceptionoptions" tabindex="-1">Interface: InterceptionOptions <a class="header-anchor" href="#interface-interceptionoptions" aria-label="Permalink to &quot;Interface: InterceptionOptions&quot;">​</a></h1><p>Defined in: packages/core/src/solver/InterceptedSolver.ts:9</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="interceptor" tabindex="-1">interceptor <a class="header-anchor" href="#interceptor" aria-label="Permalink to &quot;interceptor&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>interceptor</strong>: <a href="./RolloutInterception.html"><code>RolloutInterception</code></a></p></blockquote><p>Defined in: packages/core/src/solver/InterceptedSolver.ts:10</p><hr><h3 id="recordcalls" tabindex="-1">recordCalls <a class="header-anchor" href="#recordcalls" aria-label="Permalink to &quot;recordCalls&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>recordCalls</strong>: (<code>calls</code>) =&gt; <code>Effect</code>&lt;<code>void</code>&gt;</p></blockquote><p>Defined in: packages/core/src/solver/InterceptedSolver.ts:17</p><p>Stores a rollout&#39;s calls (model_calls.jsonl, a table) before its result is stored. Calls of failed tries are recorded too: they were made, and may have been paid for.</p><h4 id="parameters" tabindex="-1">Parameters <a class="header-anchor" href="#parameters" aria-label="Permalink to &quot;Parameters&quot;">​</a></h4><h5 id="calls" tabindex="-1">calls <a class="header-anchor" href="#calls" aria-label="Permalink to &quot;calls&quot;">​</a></h5><p>readonly <code>object</code>[]</p><h4 id="returns" tabindex="-1">Returns <a class="header-anchor" href="#returns" aria-label="Permalink to &quot;Returns&quot;">​</a></h4><p><code>Effect</code>&lt;<code>void</code>&gt;</p><hr><h3 id="upstream" tabindex="-1">upstream <a class="header-anchor" href="#upstream" aria-label="Permalink to &quot;upstream&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>upstream</strong>: <a href="./InterceptorUpstream.html"><code>InterceptorUpstream</code></a></p></blockquote><p>Defined in: packages/core/src/solver/InterceptedSolver.ts:12</p><p>The real model: the policy&#39;s configured <code>inference_url</code>, and the key proctor sends it.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/InterceptionOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const InterceptionOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  InterceptionOptions as default
};
