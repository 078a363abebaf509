import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: EvalConfigSources","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/EvalConfigSources.md","filePath":"reference/api/@proctor/core/interfaces/EvalConfigSources.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/EvalConfigSources.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / EvalConfigSources</p><h1 id="interface-evalconfigsources" tabindex="-1">Interface: EvalConfigSources <a class="header-anchor" href="#interface-evalconfigsources" aria-label="Permalink to &quot;Interface: EvalConfigSources&quot;">​</a></h1><p>Defined in: packages/core/src/config/loadEvalConfig.ts:43</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="configpath" tabindex="-1">configPath? <a class="header-anchor" href="#configpath" aria-label="Permalink to &quot;configPath?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>configPath?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/config/loadEvalConfig.ts:45</p><p>Path of a synth-ai style TOML file (<code>[eval]</code> table or top-level keys).</p><hr><h3 id="env" tabindex="-1">env? <a class="header-anchor" href="#env" aria-label="Permalink to &quot;env?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>env?</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>string</code> | <code>undefined</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/config/loadEvalConfig.ts:49</p><hr><h3 id="envfile" tabindex="-1">envFile? <a class="header-anchor" href="#envfile" aria-label="Permalink to &quot;envFile?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>envFile?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/config/loadEvalConfig.ts:48</p><p>A dotenv file whose variables override <code>env</code>.</p><hr><h3 id="flags" tabindex="-1">flags? <a class="header-anchor" href="#flags" aria-label="Permalink to &quot;flags?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>flags?</strong>: <a href="./../#evalflags"><code>EvalFlags</code></a></p></blockquote><p>Defined in: packages/core/src/config/loadEvalConfig.ts:46</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/EvalConfigSources.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const EvalConfigSources = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  EvalConfigSources as default
};
