import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: AgentLimits","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/AgentLimits.md","filePath":"reference/api/@proctor/core/interfaces/AgentLimits.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/AgentLimits.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / AgentLimits</p><h1 id="interface-agentlimits" tabindex="-1">Interface: AgentLimits <a class="header-anchor" href="#interface-agentlimits" aria-label="Permalink to &quot;Interface: AgentLimits&quot;">​</a></h1><p>Defined in: packages/core/src/agent/AgentLimits.ts:12</p><p>The limits an agent runs under, and every check of them, in one place. Turns and the agent&#39;s working time are checked here; tokens and cost are the interceptor&#39;s (per rollout), which answers a call over budget with an error the agent sees — <code>stopReasonOfRefusal</code> reads it. A per-rollout limits service can replace this module.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="agenttimeoutms" tabindex="-1">agentTimeoutMs <a class="header-anchor" href="#agenttimeoutms" aria-label="Permalink to &quot;agentTimeoutMs&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>agentTimeoutMs</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/AgentLimits.ts:16</p><p>The agent&#39;s working time (sandbox start-up and grading are outside it).</p><hr><h3 id="maxturns" tabindex="-1">maxTurns <a class="header-anchor" href="#maxturns" aria-label="Permalink to &quot;maxTurns&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>maxTurns</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/agent/AgentLimits.ts:14</p><p>Model turns; null: no limit but time.</p><hr><h3 id="verifiertimeoutms" tabindex="-1">verifierTimeoutMs <a class="header-anchor" href="#verifiertimeoutms" aria-label="Permalink to &quot;verifierTimeoutMs&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>verifierTimeoutMs</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/AgentLimits.ts:17</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/AgentLimits.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const AgentLimits = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  AgentLimits as default
};
