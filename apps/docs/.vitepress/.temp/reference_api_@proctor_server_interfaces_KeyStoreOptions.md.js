import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: KeyStoreOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/KeyStoreOptions.md","filePath":"reference/api/@proctor/server/interfaces/KeyStoreOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/KeyStoreOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / KeyStoreOptions</p><h1 id="interface-keystoreoptions" tabindex="-1">Interface: KeyStoreOptions <a class="header-anchor" href="#interface-keystoreoptions" aria-label="Permalink to &quot;Interface: KeyStoreOptions&quot;">​</a></h1><p>Defined in: packages/server/src/serve.ts:22</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="databaseurl" tabindex="-1">databaseUrl? <a class="header-anchor" href="#databaseurl" aria-label="Permalink to &quot;databaseUrl?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>databaseUrl?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/serve.ts:24</p><hr><h3 id="datadir" tabindex="-1">dataDir? <a class="header-anchor" href="#datadir" aria-label="Permalink to &quot;dataDir?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>dataDir?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/serve.ts:23</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/KeyStoreOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const KeyStoreOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  KeyStoreOptions as default
};
