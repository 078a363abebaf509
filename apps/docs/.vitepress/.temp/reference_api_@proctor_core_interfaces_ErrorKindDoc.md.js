import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ErrorKindDoc","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ErrorKindDoc.md","filePath":"reference/api/@proctor/core/interfaces/ErrorKindDoc.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ErrorKindDoc.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ErrorKindDoc</p><h1 id="interface-errorkinddoc" tabindex="-1">Interface: ErrorKindDoc <a class="header-anchor" href="#interface-errorkinddoc" aria-label="Permalink to &quot;Interface: ErrorKindDoc&quot;">​</a></h1><p>Defined in: packages/core/src/result/ErrorKindDoc.ts:3</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="meaning" tabindex="-1">meaning <a class="header-anchor" href="#meaning" aria-label="Permalink to &quot;meaning&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>meaning</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/result/ErrorKindDoc.ts:7</p><p>What happened, in a user&#39;s words.</p><hr><h3 id="retried" tabindex="-1">retried <a class="header-anchor" href="#retried" aria-label="Permalink to &quot;retried&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>retried</strong>: <code>&quot;yes&quot;</code> | <code>&quot;no&quot;</code> | <code>&quot;when the solver threw RetryableError&quot;</code></p></blockquote><p>Defined in: packages/core/src/result/ErrorKindDoc.ts:5</p><p>Whether the runner retries a rollout that failed this way (up to <code>max_retries</code>, with backoff).</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ErrorKindDoc.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ErrorKindDoc = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ErrorKindDoc as default
};
