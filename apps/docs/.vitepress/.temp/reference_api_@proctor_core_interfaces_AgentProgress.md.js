import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: AgentProgress","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/AgentProgress.md","filePath":"reference/api/@proctor/core/interfaces/AgentProgress.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/AgentProgress.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / AgentProgress</p><h1 id="interface-agentprogress" tabindex="-1">Interface: AgentProgress <a class="header-anchor" href="#interface-agentprogress" aria-label="Permalink to &quot;Interface: AgentProgress&quot;">​</a></h1><p>Defined in: packages/core/src/agent/Agent.ts:28</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="messages" tabindex="-1">messages <a class="header-anchor" href="#messages" aria-label="Permalink to &quot;messages&quot;">​</a></h3><blockquote><p><strong>messages</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/Agent.ts:30</p><hr><h3 id="turns" tabindex="-1">turns <a class="header-anchor" href="#turns" aria-label="Permalink to &quot;turns&quot;">​</a></h3><blockquote><p><strong>turns</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/agent/Agent.ts:29</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/AgentProgress.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const AgentProgress = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  AgentProgress as default
};
