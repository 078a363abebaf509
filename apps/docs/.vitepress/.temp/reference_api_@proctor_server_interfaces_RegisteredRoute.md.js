import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: RegisteredRoute","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/server/interfaces/RegisteredRoute.md","filePath":"reference/api/@proctor/server/interfaces/RegisteredRoute.md"}');
const _sfc_main = { name: "reference/api/@proctor/server/interfaces/RegisteredRoute.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/server</a> / RegisteredRoute</p><h1 id="interface-registeredroute" tabindex="-1">Interface: RegisteredRoute <a class="header-anchor" href="#interface-registeredroute" aria-label="Permalink to &quot;Interface: RegisteredRoute&quot;">​</a></h1><p>Defined in: packages/server/src/api/registeredRoutes.ts:3</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="method" tabindex="-1">method <a class="header-anchor" href="#method" aria-label="Permalink to &quot;method&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>method</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/api/registeredRoutes.ts:4</p><hr><h3 id="path" tabindex="-1">path <a class="header-anchor" href="#path" aria-label="Permalink to &quot;path&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>path</strong>: <code>string</code></p></blockquote><p>Defined in: packages/server/src/api/registeredRoutes.ts:6</p><p>In OpenAPI&#39;s form: <code>/api/eval/jobs/{id}</code>; a wildcard is <code>{path}</code>.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/server/interfaces/RegisteredRoute.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const RegisteredRoute = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  RegisteredRoute as default
};
