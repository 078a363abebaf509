import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ApiKeyRecord","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ApiKeyRecord.md","filePath":"reference/api/@proctor/server/interfaces/ApiKeyRecord.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ApiKeyRecord.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ApiKeyRecord</p><h1 id="interface-apikeyrecord" tabindex="-1">Interface: ApiKeyRecord <a class="header-anchor" href="#interface-apikeyrecord" aria-label="Permalink to &quot;Interface: ApiKeyRecord&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/ApiKey.ts:4</p><p>An API key as the server keeps it: never the key itself, only its hash and a prefix to recognise it by.</p><h2 id="extended-by" tabindex="-1">Extended by <a class="header-anchor" href="#extended-by" aria-label="Permalink to &quot;Extended by&quot;">​</a></h2><ul><li><a href="./CreatedApiKey.html"><code>CreatedApiKey</code></a></li></ul><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="createdat" tabindex="-1">createdAt <a class="header-anchor" href="#createdat" aria-label="Permalink to &quot;createdAt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>createdAt</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:9</p><hr><h3 id="id" tabindex="-1">id <a class="header-anchor" href="#id" aria-label="Permalink to &quot;id&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>id</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:5</p><hr><h3 id="isadmin" tabindex="-1">isAdmin <a class="header-anchor" href="#isadmin" aria-label="Permalink to &quot;isAdmin&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>isAdmin</strong>: <code>boolean</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:8</p><hr><h3 id="name" tabindex="-1">name <a class="header-anchor" href="#name" aria-label="Permalink to &quot;name&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>name</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:6</p><hr><h3 id="prefix" tabindex="-1">prefix <a class="header-anchor" href="#prefix" aria-label="Permalink to &quot;prefix&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>prefix</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:7</p><hr><h3 id="revokedat" tabindex="-1">revokedAt <a class="header-anchor" href="#revokedat" aria-label="Permalink to &quot;revokedAt&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>revokedAt</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/server/src/jobs/ApiKey.ts:10</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ApiKeyRecord.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ApiKeyRecord = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ApiKeyRecord as default
};
