import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ModelReply","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ModelReply.md","filePath":"reference/api/@proctor/core/interfaces/ModelReply.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ModelReply.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ModelReply</p><h1 id="interface-modelreply" tabindex="-1">Interface: ModelReply <a class="header-anchor" href="#interface-modelreply" aria-label="Permalink to &quot;Interface: ModelReply&quot;">​</a></h1><p>Defined in: packages/core/src/agent/internal/agentApis.ts:26</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="calls" tabindex="-1">calls <a class="header-anchor" href="#calls" aria-label="Permalink to &quot;calls&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>calls</strong>: readonly <code>ToolCall</code>[]</p></blockquote><p>Defined in: packages/core/src/agent/internal/agentApis.ts:28</p><hr><h3 id="text" tabindex="-1">text <a class="header-anchor" href="#text" aria-label="Permalink to &quot;text&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>text</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/agent/internal/agentApis.ts:27</p><hr><h3 id="tokens" tabindex="-1">tokens <a class="header-anchor" href="#tokens" aria-label="Permalink to &quot;tokens&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>tokens</strong>: <code>number</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/agent/internal/agentApis.ts:29</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ModelReply.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ModelReply = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ModelReply as default
};
