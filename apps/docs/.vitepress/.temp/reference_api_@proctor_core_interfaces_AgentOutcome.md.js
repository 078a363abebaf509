import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: AgentOutcome","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/AgentOutcome.md","filePath":"reference/api/@proctor/core/interfaces/AgentOutcome.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/AgentOutcome.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / AgentOutcome</p><h1 id="interface-agentoutcome" tabindex="-1">Interface: AgentOutcome <a class="header-anchor" href="#interface-agentoutcome" aria-label="Permalink to &quot;Interface: AgentOutcome&quot;">​</a></h1><p>Defined in: packages/core/src/agent/Agent.ts:34</p><p>How the agent&#39;s part of a rollout ended (grading comes after, and is the solver&#39;s).</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="messages" tabindex="-1">messages <a class="header-anchor" href="#messages" aria-label="Permalink to &quot;messages&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>messages</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/Agent.ts:37</p><hr><h3 id="stop-reason" tabindex="-1">stop_reason <a class="header-anchor" href="#stop-reason" aria-label="Permalink to &quot;stop\\_reason&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>stop_reason</strong>: <code>&quot;model_ended&quot;</code> | <code>&quot;max_turns&quot;</code> | <code>&quot;max_tokens&quot;</code> | <code>&quot;max_cost&quot;</code> | <code>&quot;max_time&quot;</code></p></blockquote><p>Defined in: packages/core/src/agent/Agent.ts:35</p><hr><h3 id="turns" tabindex="-1">turns <a class="header-anchor" href="#turns" aria-label="Permalink to &quot;turns&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>turns</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/Agent.ts:36</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/AgentOutcome.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const AgentOutcome = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  AgentOutcome as default
};
