import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ListenOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/task-app/interfaces/ListenOptions.md","filePath":"reference/api/@proctor/task-app/interfaces/ListenOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/task-app/interfaces/ListenOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/task-app</a> / ListenOptions</p><h1 id="interface-listenoptions" tabindex="-1">Interface: ListenOptions <a class="header-anchor" href="#interface-listenoptions" aria-label="Permalink to &quot;Interface: ListenOptions&quot;">​</a></h1><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:127</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="host" tabindex="-1">host? <a class="header-anchor" href="#host" aria-label="Permalink to &quot;host?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>host?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:131</p><p>Defaults to 127.0.0.1: a task app is reachable from elsewhere only when its author says so.</p><hr><h3 id="port" tabindex="-1">port? <a class="header-anchor" href="#port" aria-label="Permalink to &quot;port?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>port?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/task-app/src/TaskAppDefinition.ts:129</p><p>0 (the default) picks a free port.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/task-app/interfaces/ListenOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ListenOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ListenOptions as default
};
