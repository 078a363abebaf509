import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: NewApiKey","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/NewApiKey.md","filePath":"reference/api/@proctor/server/interfaces/NewApiKey.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/NewApiKey.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / NewApiKey</p><h1 id="interface-newapikey" tabindex="-1">Interface: NewApiKey <a class="header-anchor" href="#interface-newapikey" aria-label="Permalink to &quot;Interface: NewApiKey&quot;">​</a></h1><p>Defined in: packages/server/src/jobs/KeyStore.ts:7</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="keyhash" tabindex="-1">keyHash <a class="header-anchor" href="#keyhash" aria-label="Permalink to &quot;keyHash&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>keyHash</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/jobs/KeyStore.ts:9</p><hr><h3 id="record" tabindex="-1">record <a class="header-anchor" href="#record" aria-label="Permalink to &quot;record&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>record</strong>: <a href="./ApiKeyRecord.html"><code>ApiKeyRecord</code></a></p></blockquote><p>Defined in: packages/server/src/jobs/KeyStore.ts:8</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/NewApiKey.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const NewApiKey = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  NewApiKey as default
};
