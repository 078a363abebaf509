import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Providers","description":"","frontmatter":{},"headers":[],"relativePath":"reference/providers.md","filePath":"reference/providers.md"}');
const _sfc_main = { name: "reference/providers.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><h1 id="providers" tabindex="-1">Providers <a class="header-anchor" href="#providers" aria-label="Permalink to &quot;Providers&quot;">​</a></h1><div><p><code>--provider NAME</code> (or <code>provider</code> in the config) makes a provider&#39;s base URL the policy&#39;s model endpoint when no <code>inference_url</code> is given; the provider&#39;s key variable is sent only to it (<a href="./../guide/models.html#keys">keys</a>). <code>openai</code> honours <code>OPENAI_BASE_URL</code>.</p><table tabindex="0"><thead><tr><th>Provider</th><th>Base URL</th><th>Key variable</th></tr></thead><tbody><tr><td><code>openai</code></td><td><code>https://api.openai.com/v1</code></td><td><code>OPENAI_API_KEY</code></td></tr><tr><td><code>anthropic</code></td><td><code>https://api.anthropic.com/v1</code></td><td><code>ANTHROPIC_API_KEY</code></td></tr><tr><td><code>groq</code></td><td><code>https://api.groq.com/openai/v1</code></td><td><code>GROQ_API_KEY</code></td></tr><tr><td><code>google</code></td><td><code>https://generativelanguage.googleapis.com/v1beta/openai/chat/completions</code></td><td><code>GEMINI_API_KEY</code></td></tr><tr><td><code>openrouter</code></td><td><code>https://openrouter.ai/api/v1</code></td><td><code>OPENROUTER_API_KEY</code></td></tr><tr><td><code>together</code></td><td><code>https://api.together.xyz/v1</code></td><td><code>TOGETHER_API_KEY</code></td></tr><tr><td><code>fireworks</code></td><td><code>https://api.fireworks.ai/inference/v1</code></td><td><code>FIREWORKS_API_KEY</code></td></tr><tr><td><code>mistral</code></td><td><code>https://api.mistral.ai/v1</code></td><td><code>MISTRAL_API_KEY</code></td></tr><tr><td><code>deepseek</code></td><td><code>https://api.deepseek.com/v1</code></td><td><code>DEEPSEEK_API_KEY</code></td></tr><tr><td><code>xai</code></td><td><code>https://api.x.ai/v1</code></td><td><code>XAI_API_KEY</code></td></tr><tr><td><code>cerebras</code></td><td><code>https://api.cerebras.ai/v1</code></td><td><code>CEREBRAS_API_KEY</code></td></tr></tbody></table></div></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/providers.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const providers = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  providers as default
};
