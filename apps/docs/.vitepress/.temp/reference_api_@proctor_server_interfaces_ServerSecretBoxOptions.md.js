import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ServerSecretBoxOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/ServerSecretBoxOptions.md","filePath":"reference/api/@proctor/server/interfaces/ServerSecretBoxOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/ServerSecretBoxOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / ServerSecretBoxOptions</p><h1 id="interface-serversecretboxoptions" tabindex="-1">Interface: ServerSecretBoxOptions <a class="header-anchor" href="#interface-serversecretboxoptions" aria-label="Permalink to &quot;Interface: ServerSecretBoxOptions&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/ServerSecretBox.ts:6</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="datadir" tabindex="-1">dataDir? <a class="header-anchor" href="#datadir" aria-label="Permalink to &quot;dataDir?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>dataDir?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/ServerSecretBox.ts:10</p><p>Where <code>secret.key</code> is kept when no key is given; never a default such as the working directory.</p><hr><h3 id="secretkey" tabindex="-1">secretKey? <a class="header-anchor" href="#secretkey" aria-label="Permalink to &quot;secretKey?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>secretKey?</strong>: <code>Redacted</code>&lt;<code>string</code>&gt;</p></blockquote><p>Defined in: packages/server/src/jobs/ServerSecretBox.ts:8</p><p>Takes precedence over <code>PROCTOR_SECRET_KEY</code>, which takes precedence over the key file.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/ServerSecretBoxOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ServerSecretBoxOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ServerSecretBoxOptions as default
};
