import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: BackoffPolicy","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/BackoffPolicy.md","filePath":"reference/api/@proctor/core/interfaces/BackoffPolicy.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/BackoffPolicy.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / BackoffPolicy</p><h1 id="interface-backoffpolicy" tabindex="-1">Interface: BackoffPolicy <a class="header-anchor" href="#interface-backoffpolicy" aria-label="Permalink to &quot;Interface: BackoffPolicy&quot;">​</a></h1><p>Defined in: packages/core/src/runner/Backoff.ts:3</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="basems" tabindex="-1">baseMs <a class="header-anchor" href="#basems" aria-label="Permalink to &quot;baseMs&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>baseMs</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/runner/Backoff.ts:4</p><hr><h3 id="maxms" tabindex="-1">maxMs <a class="header-anchor" href="#maxms" aria-label="Permalink to &quot;maxMs&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>maxMs</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/runner/Backoff.ts:5</p><hr><h3 id="maxretryafterms" tabindex="-1">maxRetryAfterMs <a class="header-anchor" href="#maxretryafterms" aria-label="Permalink to &quot;maxRetryAfterMs&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>maxRetryAfterMs</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/runner/Backoff.ts:7</p><p>The most a server&#39;s <code>Retry-After</code> is honoured for; a longer ask is capped rather than obeyed.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/BackoffPolicy.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const BackoffPolicy = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  BackoffPolicy as default
};
