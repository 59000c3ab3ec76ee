
var e=class extends Error{name="ConfigFileError"};export{e as a};
