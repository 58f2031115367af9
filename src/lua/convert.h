/* convert.h - plain values across the boundary: JSON <-> Lua tables.
 * Internal to src/lua/ (includes lua.h). */
#ifndef PTB_CONVERT_H
#define PTB_CONVERT_H

#include <cjson/cJSON.h>
#include <lua.h>

enum ptb_lua_shape { PTB_LUA_ARRAY, PTB_LUA_OBJECT };

void ptb_lua_init_markers(lua_State *L);
/* Give the table at idx the array or object marker metatable. */
void ptb_lua_mark(lua_State *L, int idx, enum ptb_lua_shape shape);
void ptb_lua_push_null(lua_State *L);
void ptb_lua_push_json(lua_State *L, const cJSON *j);
/* Convert the value at idx; *out receives the root as soon as it exists so
 * the caller can free a partial tree when this raises a Lua error. */
void ptb_lua_to_json(lua_State *L, int idx, cJSON **out);

#endif
