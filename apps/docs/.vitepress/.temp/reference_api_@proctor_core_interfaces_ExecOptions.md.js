import { ssrRenderAttrs } from "vue/server-renderer";
import { useSSRContext } from "vue";
import { _ as _export_sfc } from "./plugin-vue_export-helper.1tPrXgE0.js";
const __pageData = JSON.parse('{"title":"Interface: ExecOptions","description":"","frontmatter":{},"headers":[],"relativePath":"reference/api/@proctor/core/interfaces/ExecOptions.md","filePath":"reference/api/@proctor/core/interfaces/ExecOptions.md"}');
const _sfc_main = { name: "reference/api/@proctor/core/interfaces/ExecOptions.md" };
function _sfc_ssrRender(_ctx, _push, _parent, _attrs, $props, $setup, $data, $options) {
  _push(`<div${ssrRenderAttrs(_attrs)}><p><a href="./../../../">Library API</a> / <a href="./../">@proctor/core</a> / ExecOptions</p><h1 id="interface-execoptions" tabindex="-1">Interface: ExecOptions <a class="header-anchor" href="#interface-execoptions" aria-label="Permalink to &quot;Interface: ExecOptions&quot;">​</a></h1><p>Defined in: packages/core/src/sandbox/Sandbox.ts:10</p><h2 id="properties" tabindex="-1">Properties <a class="header-anchor" href="#properties" aria-label="Permalink to &quot;Properties&quot;">​</a></h2><h3 id="cwd" tabindex="-1">cwd? <a class="header-anchor" href="#cwd" aria-label="Permalink to &quot;cwd?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>cwd?</strong>: <code>string</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:12</p><p>Working directory inside the sandbox; default the sandbox&#39;s workdir.</p><hr><h3 id="env" tabindex="-1">env? <a class="header-anchor" href="#env" aria-label="Permalink to &quot;env?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>env?</strong>: <code>Readonly</code>&lt;<code>Record</code>&lt;<code>string</code>, <code>string</code>&gt;&gt;</p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:14</p><p>Added to the sandbox&#39;s environment for this command only.</p><hr><h3 id="maxoutputbytes" tabindex="-1">maxOutputBytes? <a class="header-anchor" href="#maxoutputbytes" aria-label="Permalink to &quot;maxOutputBytes?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>maxOutputBytes?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:20</p><p>Each of stdout and stderr keeps at most this many bytes (default 1 MiB); the rest is counted, not kept.</p><hr><h3 id="stdin" tabindex="-1">stdin? <a class="header-anchor" href="#stdin" aria-label="Permalink to &quot;stdin?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>stdin?</strong>: <code>string</code> | <code>Uint8Array</code>&lt;<code>ArrayBufferLike</code>&gt;</p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:16</p><p>Written to the command&#39;s stdin, which is then closed; without it stdin is empty (closed at once).</p><hr><h3 id="timeoutms" tabindex="-1">timeoutMs? <a class="header-anchor" href="#timeoutms" aria-label="Permalink to &quot;timeoutMs?&quot;">​</a></h3><blockquote><p><code>readonly</code> <code>optional</code> <strong>timeoutMs?</strong>: <code>number</code></p></blockquote><p>Defined in: packages/core/src/sandbox/Sandbox.ts:18</p><p>The command is killed after this long and the result says <code>timedOut</code>; default no limit.</p></div>`);
}
const _sfc_setup = _sfc_main.setup;
_sfc_main.setup = (props, ctx) => {
  const ssrContext = useSSRContext();
  (ssrContext.modules || (ssrContext.modules = /* @__PURE__ */ new Set())).add("reference/api/@proctor/core/interfaces/ExecOptions.md");
  return _sfc_setup ? _sfc_setup(props, ctx) : void 0;
};
const ExecOptions = /* @__PURE__ */ _export_sfc(_sfc_main, [["ssrRender", _sfc_ssrRender]]);
export {
  __pageData,
  ExecOptions as default
};
