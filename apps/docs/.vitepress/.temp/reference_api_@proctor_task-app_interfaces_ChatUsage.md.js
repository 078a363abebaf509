import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ChatUsage","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ChatUsage.md","filePath":"reference/api/@proctor/task-app/interfaces/ChatUsage.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ChatUsage.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ChatUsage</p><h1 id="interface-chatusage" tabindex="-1">Interface: ChatUsage <a class="header-anchor" href="#interface-chatusage" aria-label="Permalink to &quot;Interface: ChatUsage&quot;">​</a></h1><p>Defined in: packages/task-app/src/openAiChat.ts:16</p><h2 id="indexable" tabindex="-1">Indexable <a class="header-anchor" href="#indexable" aria-label="Permalink to &quot;Indexable&quot;">​</a></h2><blockquote><p>[<code>key</code>: <code>string</code>]: <code>unknown</code></p></blockquote><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="completion-tokens" tabindex="-1">completion_tokens? <a class="header-anchor" href="#completion-tokens" aria-label="Permalink to &quot;completion\\_tokens?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>completion_tokens?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:18</p><hr><h3 id="prompt-tokens" tabindex="-1">prompt_tokens? <a class="header-anchor" href="#prompt-tokens" aria-label="Permalink to &quot;prompt\\_tokens?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>prompt_tokens?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:17</p><hr><h3 id="total-tokens" tabindex="-1">total_tokens? <a class="header-anchor" href="#total-tokens" aria-label="Permalink to &quot;total\\_tokens?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>total_tokens?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:19</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ChatUsage.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ChatUsage = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ChatUsage as default
};
