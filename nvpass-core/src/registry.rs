//! [`Registry`]: the passes a tool knows, looked up by either spelling.
//!
//! Core provides the machinery only; the list of nvpass passes is registered
//! by `nvpass-passes`. Each entry pairs a `&'static` [`PassInfo`] with a
//! constructor that receives the pass's validated pipeline options.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::ir::IrEdit;
use crate::knob::{KnobError, KnobValues};
use crate::manager::PassManager;
use crate::pass::{AnyPass, PassInfo, PassOptions};
use crate::pipeline::{Pipeline, PipelineError};

/// Builds a pass instance from its options; `Err` carries a message for the
/// user (e.g. an option combination the pass rejects).
pub type PassCtor<M> = fn(&PassOptions) -> Result<AnyPass<M>, String>;

/// One registered pass.
pub struct RegistryEntry<M: IrEdit + ?Sized> {
    /// Static description.
    pub info: &'static PassInfo,
    /// Constructor.
    pub ctor: PassCtor<M>,
}

impl<M: IrEdit + ?Sized> Clone for RegistryEntry<M> {
    fn clone(&self) -> Self {
        RegistryEntry {
            info: self.info,
            ctor: self.ctor,
        }
    }
}

impl<M: IrEdit + ?Sized> fmt::Debug for RegistryEntry<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistryEntry")
            .field("info", self.info)
            .finish()
    }
}

/// A name collision at registration.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DuplicatePassName {
    /// The name already taken (pipeline or class spelling).
    pub name: &'static str,
}

impl fmt::Display for DuplicatePassName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass name '{}' is registered twice", self.name)
    }
}

/// Registered passes, in registration order.
pub struct Registry<M: IrEdit + ?Sized> {
    entries: Vec<RegistryEntry<M>>,
}

impl<M: IrEdit + ?Sized> Default for Registry<M> {
    fn default() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }
}

impl<M: IrEdit + ?Sized> fmt::Debug for Registry<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.entries).finish()
    }
}

impl<M: IrEdit + ?Sized> Registry<M> {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a pass. Both its pipeline name and class name must be new
    /// (across both spellings of every registered pass).
    pub fn register(
        &mut self,
        info: &'static PassInfo,
        ctor: PassCtor<M>,
    ) -> Result<(), DuplicatePassName> {
        for name in [info.name, info.class_name] {
            if self.lookup(name).is_some() {
                return Err(DuplicatePassName { name });
            }
        }
        self.entries.push(RegistryEntry { info, ctor });
        Ok(())
    }

    /// The entry whose pipeline name or class name is `name`.
    pub fn lookup(&self, name: &str) -> Option<&RegistryEntry<M>> {
        self.entries
            .iter()
            .find(|e| e.info.name == name || e.info.class_name == name)
    }

    /// All entries in registration order.
    pub fn entries(&self) -> &[RegistryEntry<M>] {
        &self.entries
    }

    /// Pipeline names in registration order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|e| e.info.name)
    }

    /// A [`KnobValues`] with the global knobs of every registered pass
    /// declared (for the CLI to fill from `--name=value` arguments).
    pub fn knob_values(&self) -> Result<KnobValues, KnobError> {
        let mut values = KnobValues::new();
        for e in &self.entries {
            values.declare(e.info.knobs)?;
        }
        Ok(values)
    }

    /// Checks names and options of `pipeline` without building passes.
    pub fn validate(&self, pipeline: &Pipeline) -> Result<(), PipelineError> {
        for entry in &pipeline.entries {
            self.options_for(entry)?;
        }
        Ok(())
    }

    fn options_for(
        &self,
        entry: &crate::pipeline::PipelineEntry,
    ) -> Result<(&RegistryEntry<M>, PassOptions), PipelineError> {
        let Some(reg) = self.lookup(&entry.name) else {
            let mut valid = String::new();
            for (i, n) in self.names().enumerate() {
                if i > 0 {
                    valid.push_str(", ");
                }
                valid.push_str(n);
            }
            if valid.is_empty() {
                valid.push_str("(none registered)");
            }
            return Err(PipelineError::new(
                entry.pos,
                alloc::format!("unknown pass '{}'; valid passes: {valid}", entry.name),
            ));
        };
        let pairs = entry.options.iter().map(|o| (&o.key, o.value.as_ref()));
        let options = PassOptions::new(reg.info, pairs).map_err(|(i, err)| {
            let pos = entry.options.get(i).map_or(entry.pos, |o| o.pos);
            let mut message = alloc::format!("pass '{}': {err}", entry.name);
            if matches!(err, KnobError::Unknown { .. }) {
                message.push_str("; valid options: ");
                if reg.info.options.is_empty() {
                    message.push_str("(none)");
                }
                for (j, o) in reg.info.options.iter().enumerate() {
                    if j > 0 {
                        message.push_str(", ");
                    }
                    message.push_str(o.name);
                }
            }
            PipelineError::new(pos, message)
        })?;
        Ok((reg, options))
    }

    /// Builds a [`PassManager`] running `pipeline`'s passes in order.
    /// Errors (unknown name, bad option, constructor refusal) are located at
    /// the offending entry or option.
    pub fn build(&self, pipeline: &Pipeline) -> Result<PassManager<M>, PipelineError> {
        let mut pm = PassManager::new();
        for entry in &pipeline.entries {
            let (reg, options) = self.options_for(entry)?;
            let pass = (reg.ctor)(&options).map_err(|msg| {
                PipelineError::new(entry.pos, alloc::format!("pass '{}': {msg}", entry.name))
            })?;
            pm.push(pass);
        }
        Ok(pm)
    }

    /// [`Pipeline::parse`] then [`Registry::build`].
    pub fn build_text(&self, text: &str) -> Result<PassManager<M>, PipelineError> {
        self.build(&Pipeline::parse(text)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{AttrKey, AttrSlot, CallConv, FuncId, IrView};
    use crate::manager::tests::{Count, Fail, Touch, COUNT, FAIL, TOUCH};
    use crate::pass::Session;
    use crate::testing::MockModule;

    fn registry() -> Registry<MockModule> {
        let mut r = Registry::new();
        r.register(&TOUCH, Touch::create).unwrap();
        r.register(&COUNT, Count::create).unwrap();
        r.register(&FAIL, Fail::create).unwrap();
        r
    }

    #[test]
    fn lookup_by_either_spelling() {
        let r = registry();
        assert_eq!(r.lookup("touch").unwrap().info.class_name, "TouchPass");
        assert_eq!(r.lookup("TouchPass").unwrap().info.name, "touch");
        assert_eq!(r.lookup("CountPrinter").unwrap().info.name, "count");
        assert!(r.lookup("Touch").is_none());
        assert_eq!(r.names().collect::<Vec<_>>(), ["touch", "count", "fail"]);
        assert_eq!(r.entries().len(), 3);
    }

    #[test]
    fn rejects_duplicate_names() {
        static CLASH: PassInfo = PassInfo {
            name: "touch2",
            class_name: "touch",
            description: "",
            knobs: &[],
            options: &[],
        };
        let mut r = registry();
        assert_eq!(
            r.register(&CLASH, Count::create),
            Err(DuplicatePassName { name: "touch" })
        );
        assert_eq!(
            r.register(&TOUCH, Touch::create),
            Err(DuplicatePassName { name: "touch" })
        );
        assert_eq!(r.entries().len(), 3);
    }

    #[test]
    fn builds_pipelines_with_options() {
        let r = registry();
        let mut pm = r.build_text("TouchPass<tag=hot>,count").unwrap();
        let names: Vec<_> = pm.passes().iter().map(|p| p.info().name).collect();
        assert_eq!(names, ["touch", "count"]);
        let mut m = MockModule::default();
        let f = m.add_func("f", CallConv::C, &[]);
        pm.run(&mut m, &mut Session::default(), &mut []).unwrap();
        assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Str("hot")));
        assert!(!m.has_attr(FuncId::new(0), AttrSlot::Function, AttrKey::Str("touched")));
        assert!(r.build_text("").unwrap().is_empty());
    }

    #[test]
    fn reports_located_errors() {
        let r = registry();
        let err = |text: &str| match r.build_text(text) {
            Ok(_) => panic!("{text} built"),
            Err(e) => (e.pos, e.message),
        };
        assert_eq!(
            err("count,inline"),
            (
                6,
                "unknown pass 'inline'; valid passes: touch, count, fail".into()
            )
        );
        assert_eq!(
            err("touch<verbose>"),
            (
                6,
                "pass 'touch': unknown option '--verbose'; valid options: tag".into()
            )
        );
        assert_eq!(
            err("count<x=1>"),
            (
                6,
                "pass 'count': unknown option '--x'; valid options: (none)".into()
            )
        );
        assert_eq!(
            err("count,touch<tag>"),
            (
                12,
                "pass 'touch': option '--tag' requires a value ('--tag=<value>')".into()
            )
        );
        // The constructor's own refusal is located at the entry.
        assert_eq!(
            err("count,touch<tag=>"),
            (6, "pass 'touch': option 'tag' must not be empty".into())
        );
        assert_eq!(err("count,,").0, 6);
        assert!(r
            .validate(&Pipeline::parse("touch<tag=x>,FailPass").unwrap())
            .is_ok());
        let empty: Registry<MockModule> = Registry::new();
        assert_eq!(
            empty.build_text("a").err().map(|e| e.message),
            Some("unknown pass 'a'; valid passes: (none registered)".into())
        );
    }

    #[test]
    fn collects_knobs() {
        let knobs = registry().knob_values().unwrap();
        assert!(knobs.is_declared("touch-verbose"));
        // Pipeline options are per pass instance, not global knobs.
        assert!(!knobs.is_declared("tag"));
    }
}
