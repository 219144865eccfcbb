// build output (the demo tries to delete this folder and the permission gate refuses)
console.log('Hello, world!', 6);
