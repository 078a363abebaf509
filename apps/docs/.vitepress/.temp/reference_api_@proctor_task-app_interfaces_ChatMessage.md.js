import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ChatMessage","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ChatMessage.md","filePath":"reference/api/@proctor/task-app/interfaces/ChatMessage.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ChatMessage.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ChatMessage</p><h1 id="interface-chatmessage" tabindex="-1">Interface: ChatMessage <a class="header-anchor" href="#interface-chatmessage" aria-label="Permalink to &quot;Interface: ChatMessage&quot;">​</a></h1><p>Defined in: packages/task-app/src/openAiChat.ts:9</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="content" tabindex="-1">content <a class="header-anchor" href="#content" aria-label="Permalink to &quot;content&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>content</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:11</p><hr><h3 id="role" tabindex="-1">role <a class="header-anchor" href="#role" aria-label="Permalink to &quot;role&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>role</strong>: <code>&quot;tool&quot;</code> | <code>&quot;system&quot;</code> | <code>&quot;user&quot;</code> | <code>&quot;assistant&quot;</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:10</p><hr><h3 id="tool-call-id" tabindex="-1">tool_call_id? <a class="header-anchor" href="#tool-call-id" aria-label="Permalink to &quot;tool\\_call\\_id?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>tool_call_id?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:13</p><hr><h3 id="tool-calls" tabindex="-1">tool_calls? <a class="header-anchor" href="#tool-calls" aria-label="Permalink to &quot;tool\\_calls?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>tool_calls?</strong>: readonly <a href="./ToolCall.html"><code>ToolCall</code></a>[]</p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:12</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ChatMessage.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ChatMessage = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ChatMessage as default
};
