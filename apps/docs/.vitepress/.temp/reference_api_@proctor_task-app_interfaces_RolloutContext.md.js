import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RolloutContext","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/RolloutContext.md","filePath":"reference/api/@proctor/task-app/interfaces/RolloutContext.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/RolloutContext.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / RolloutContext</p><h1 id="interface-rolloutcontext" tabindex="-1">Interface: RolloutContext <a class="header-anchor" href="#interface-rolloutcontext" aria-label="Permalink to &quot;Interface: RolloutContext&quot;">​</a></h1><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:81</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="log" tabindex="-1">log <a class="header-anchor" href="#log" aria-label="Permalink to &quot;log&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>log</strong>: <code>FastifyBaseLogger</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:86</p><hr><h3 id="signal" tabindex="-1">signal <a class="header-anchor" href="#signal" aria-label="Permalink to &quot;signal&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>signal</strong>: <code>AbortSignal</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:83</p><p>Aborted when the caller hangs up, so a rollout stops paying for model calls nobody will read.</p><hr><h3 id="tracecorrelationid" tabindex="-1">traceCorrelationId <a class="header-anchor" href="#tracecorrelationid" aria-label="Permalink to &quot;traceCorrelationId&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>traceCorrelationId</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:85</p><p>The id echoed in the response; forward it to the model (it is already in the inference URL if proctor&#39;s interceptor is in use).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/RolloutContext.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RolloutContext = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RolloutContext as default
};
