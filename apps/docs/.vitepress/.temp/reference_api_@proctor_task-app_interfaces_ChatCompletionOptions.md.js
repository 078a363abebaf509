import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ChatCompletionOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ChatCompletionOptions.md","filePath":"reference/api/@proctor/task-app/interfaces/ChatCompletionOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ChatCompletionOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ChatCompletionOptions</p><h1 id="interface-chatcompletionoptions" tabindex="-1">Interface: ChatCompletionOptions <a class="header-anchor" href="#interface-chatcompletionoptions" aria-label="Permalink to &quot;Interface: ChatCompletionOptions&quot;">​</a></h1><p>Defined in: packages/task-app/src/openAiChat.ts:69</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="apikey" tabindex="-1">apiKey? <a class="header-anchor" href="#apikey" aria-label="Permalink to &quot;apiKey?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>apiKey?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:73</p><hr><h3 id="body" tabindex="-1">body <a class="header-anchor" href="#body" aria-label="Permalink to &quot;body&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>body</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:72</p><hr><h3 id="inferenceurl" tabindex="-1">inferenceUrl <a class="header-anchor" href="#inferenceurl" aria-label="Permalink to &quot;inferenceUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>inferenceUrl</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:71</p><p>The policy&#39;s <code>inference_url</code> in any synth-ai shape; the correlation id in it is kept.</p><hr><h3 id="signal" tabindex="-1">signal? <a class="header-anchor" href="#signal" aria-label="Permalink to &quot;signal?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>signal?</strong>: <code>AbortSignal</code></p></blockquote><p>Defined in: packages/task-app/src/openAiChat.ts:74</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ChatCompletionOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ChatCompletionOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ChatCompletionOptions as default
};
