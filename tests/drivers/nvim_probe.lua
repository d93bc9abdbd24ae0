-- Drives Neovim (headless) against `veritype lsp`: opens a file, waits for
-- diagnostics, asks a hover, and writes both to a JSON file.
-- Arguments come as globals set with `--cmd "lua ..."`: VT_CMD (a list),
-- VT_ROOT, VT_FILE, VT_OUT, VT_LINE, VT_COL (0-based).
local client_id = vim.lsp.start_client({
  name = "veritype",
  cmd = VT_CMD,
  root_dir = VT_ROOT,
})
vim.cmd("edit " .. vim.fn.fnameescape(VT_FILE))
vim.lsp.buf_attach_client(0, client_id)
local got = vim.wait(60000, function()
  return #vim.diagnostic.get(0) > 0
end, 100)
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(diagnostics, { line = d.lnum, message = d.message, code = d.code })
end
local client = vim.lsp.get_client_by_id(client_id)
local params = {
  textDocument = { uri = vim.uri_from_fname(VT_FILE) },
  position = { line = VT_LINE, character = VT_COL },
}
local reply = client.request_sync("textDocument/hover", params, 60000, 0)
local hover = vim.NIL
if reply and reply.result and reply.result.contents then
  hover = reply.result.contents.value or reply.result.contents
end
local f = io.open(VT_OUT, "w")
f:write(vim.fn.json_encode({ waited = got, diagnostics = diagnostics, hover = hover }))
f:close()
client.stop()
vim.cmd("qa!")
