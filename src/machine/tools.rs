//! Tools by name: a list and an index into it.
//!
//! The index is a map of the type of the tracker's id index, so the three
//! tool tables add no hash-map instantiation of their own to the wasm
//! module. Tools are shared (`Rc`): the application's run tools are also
//! the run's, and no `Tool` is ever cloned, so no `Value::clone` is
//! linked into the wasm module for them.

use crate::events::Tool;
use crate::HashMap;
use std::rc::Rc;

/// Tools by name; a tool inserted under a name already held replaces it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tools {
    index: HashMap<String, usize>,
    list: Vec<Rc<Tool>>,
}

impl Tools {
    /// Adds `tool`, replacing the one of the same name.
    pub(crate) fn insert(&mut self, tool: Rc<Tool>) {
        if let Some(&at) = self.index.get(&tool.name) {
            self.list[at] = tool;
        } else {
            self.index.insert(tool.name.clone(), self.list.len());
            self.list.push(tool);
        }
    }

    /// The tool named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Tool> {
        self.index.get(name).map(|&at| &*self.list[at])
    }

    pub(crate) fn clear(&mut self) {
        self.index.clear();
        self.list.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Tools;
    use crate::events::Tool;
    use std::rc::Rc;

    fn tool(name: &str, description: &str) -> Rc<Tool> {
        Rc::new(Tool {
            name: name.into(),
            description: description.into(),
            parameters: json!(null),
        })
    }

    #[test]
    fn f1_tables_share_a_tool_rather_than_copy_it() {
        let shared = tool("a", "first");
        let (mut application, mut run) = (Tools::default(), Tools::default());
        application.insert(Rc::clone(&shared));
        run.insert(Rc::clone(&shared));
        assert!(std::ptr::eq(
            application.get("a").unwrap(),
            Rc::as_ptr(&shared)
        ));
        assert!(std::ptr::eq(run.get("a").unwrap(), Rc::as_ptr(&shared)));
    }

    #[test]
    fn a_later_tool_of_the_same_name_replaces_the_first() {
        let mut tools = Tools::default();
        tools.insert(tool("a", "first"));
        tools.insert(tool("b", "other"));
        tools.insert(tool("a", "second"));
        assert_eq!(
            tools.get("a").map(|t| t.description.as_str()),
            Some("second")
        );
        assert_eq!(
            tools.get("b").map(|t| t.description.as_str()),
            Some("other")
        );
        assert!(tools.get("c").is_none());
        tools.clear();
        assert!(tools.get("a").is_none());
    }
}
