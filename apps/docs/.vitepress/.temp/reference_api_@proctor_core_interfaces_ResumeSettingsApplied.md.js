import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ResumeSettingsApplied","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ResumeSettingsApplied.md","filePath":"reference/api/@proctor/core/interfaces/ResumeSettingsApplied.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ResumeSettingsApplied.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ResumeSettingsApplied</p><h1 id="interface-resumesettingsapplied" tabindex="-1">Interface: ResumeSettingsApplied <a class="header-anchor" href="#interface-resumesettingsapplied" aria-label="Permalink to &quot;Interface: ResumeSettingsApplied&quot;">​</a></h1><p>Defined in: packages/core/src/config/ResumeSettings.ts:145</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="changes" tabindex="-1">changes <a class="header-anchor" href="#changes" aria-label="Permalink to &quot;changes&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>changes</strong>: readonly <code>string</code>[]</p></blockquote><p>Defined in: packages/core/src/config/ResumeSettings.ts:151</p><p>One line per setting that changes how the run executes from now on.</p><hr><h3 id="inferenceurl" tabindex="-1">inferenceUrl <a class="header-anchor" href="#inferenceurl" aria-label="Permalink to &quot;inferenceUrl&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>inferenceUrl</strong>: <code>string</code> | <code>null</code></p></blockquote><p>Defined in: packages/core/src/config/ResumeSettings.ts:149</p><p>The policy&#39;s model endpoint for this session, when the resume gives another one.</p><hr><h3 id="overrides" tabindex="-1">overrides <a class="header-anchor" href="#overrides" aria-label="Permalink to &quot;overrides&quot;">​</a></h3><blockquote><p><code>readonly</code> <strong>overrides</strong>: <code>Partial</code>&lt;<code>Pick</code>&lt;<a href="./EvalRunConfig.html"><code>EvalRunConfig</code></a>, <em>typeof</em> <code>MAY_CHANGE</code>[<code>MayChange</code>]&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/config/ResumeSettings.ts:147</p><p>The settings that may change, as they apply to this session.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ResumeSettingsApplied.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ResumeSettingsApplied = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ResumeSettingsApplied as default
};
