
var e=class extends Error{reason;constructor(r){super(`not reviewed: ${r}`),this.name="NotReviewedError",this.reason=r}};export{e as a};
