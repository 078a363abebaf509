import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ConfigSecrets","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ConfigSecrets.md","filePath":"reference/api/@proctor/core/interfaces/ConfigSecrets.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ConfigSecrets.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ConfigSecrets</p><h1 id="interface-configsecrets" tabindex="-1">Interface: ConfigSecrets <a class="header-anchor" href="#interface-configsecrets" aria-label="Permalink to &quot;Interface: ConfigSecrets&quot;">​</a></h1><p>Defined in: packages/core/src/config/EvalRunConfig.ts:531</p><p>What a record of a config (<code>publicConfig</code>) leaves out: the task-app key and the policy and env tables as given.</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="env-config" tabindex="-1">env_config <a class="header-anchor" href="#env-config" aria-label="Permalink to &quot;env\\_config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>env_config</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/config/EvalRunConfig.ts:534</p><hr><h3 id="policy-config" tabindex="-1">policy_config <a class="header-anchor" href="#policy-config" aria-label="Permalink to &quot;policy\\_config&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>policy_config</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>unknown</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/config/EvalRunConfig.ts:533</p><hr><h3 id="task-app-api-key" tabindex="-1">task_app_api_key <a class="header-anchor" href="#task-app-api-key" aria-label="Permalink to &quot;task\\_app\\_api\\_key&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>task_app_api_key</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/config/EvalRunConfig.ts:532</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ConfigSecrets.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ConfigSecrets = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ConfigSecrets as default
};
