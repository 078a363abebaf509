import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: EvaluateLimits","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/EvaluateLimits.md","filePath":"reference/api/@proctor/core/interfaces/EvaluateLimits.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/EvaluateLimits.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / EvaluateLimits</p><h1 id="interface-evaluatelimits" tabindex="-1">Interface: EvaluateLimits <a class="header-anchor" href="#interface-evaluatelimits" aria-label="Permalink to &quot;Interface: EvaluateLimits&quot;">​</a></h1><p>Defined in: packages/core/src/eval/Evaluate.ts:49</p><p>Limits of every rollout (a solver may change them per task with <code>ctx.limits.override</code>); see <code>RolloutLimits</code>.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="agenttimeoutseconds" tabindex="-1">agentTimeoutSeconds? <a class="header-anchor" href="#agenttimeoutseconds" aria-label="Permalink to &quot;agentTimeoutSeconds?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>agentTimeoutSeconds?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:54</p><hr><h3 id="maxcost" tabindex="-1">maxCost? <a class="header-anchor" href="#maxcost" aria-label="Permalink to &quot;maxCost?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>maxCost?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:53</p><hr><h3 id="maxtokens" tabindex="-1">maxTokens? <a class="header-anchor" href="#maxtokens" aria-label="Permalink to &quot;maxTokens?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>maxTokens?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:52</p><p>Enforced by the interceptor: needs the <code>model</code> option.</p><hr><h3 id="maxturns" tabindex="-1">maxTurns? <a class="header-anchor" href="#maxturns" aria-label="Permalink to &quot;maxTurns?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>maxTurns?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:50</p><hr><h3 id="verifiertimeoutseconds" tabindex="-1">verifierTimeoutSeconds? <a class="header-anchor" href="#verifiertimeoutseconds" aria-label="Permalink to &quot;verifierTimeoutSeconds?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>verifierTimeoutSeconds?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/eval/Evaluate.ts:55</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/EvaluateLimits.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const EvaluateLimits = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  EvaluateLimits as default
};
