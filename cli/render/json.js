// The json format of every view: the document (or what the view makes of it for other tools) as
// indented JSON with a final newline.
export const renderJson = (value) => `${JSON.stringify(value, null, 1)}\n`;
